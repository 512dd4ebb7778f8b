/// The relative date periods of Docs/QueryLanguage.md, Filter terms, resolved against "now" (local wall time).
public enum RelativeDate {
  /// The period a relative-date word names, or `nil` when the word is not one.
  /// Throws when it has the `last-N…` shape with a count that is not 1 or more.
  public static func period(_ word: String, now: WallTime) throws(PlanError) -> Period? {
    let today = Int(floorDiv(now, Calendar.microsPerDay))
    let (y, m, _) = Calendar.civil(fromDays: today)
    let monday = today - Calendar.weekday(ofDays: today)
    switch word.lowercased() {
    case "today": return days(today, today + 1)
    case "yesterday": return days(today - 1, today)
    case "this-week": return days(monday, monday + 7)
    case "last-week": return days(monday - 7, monday)
    case "this-month": return days(monthStart(y, m), monthStart(y, m + 1))
    case "last-month": return days(monthStart(y, m - 1), monthStart(y, m))
    case "this-year": return days(Calendar.days(year: y, month: 1, day: 1), Calendar.days(year: y + 1, month: 1, day: 1))
    case "last-year": return days(Calendar.days(year: y - 1, month: 1, day: 1), Calendar.days(year: y, month: 1, day: 1))
    default: break
    }
    let lower = Array(word.lowercased().utf8)
    guard lower.count >= 7, lower.starts(with: Array("last-".utf8)),
      let unit = lower.last, unit == UInt8(ascii: "d") || unit == UInt8(ascii: "w") || unit == UInt8(ascii: "m")
    else { return nil }
    let digits = lower[5..<(lower.count - 1)]
    guard digits.allSatisfy({ $0.isDigit }) else { return nil }
    guard digits.count <= 6, let n = Int(String(decoding: digits, as: UTF8.self)), n >= 1 else {
      throw PlanError(
        message: "'\(word)': the count in last-N\(Character(Unicode.Scalar(unit))) must be a whole number from 1 to 999999",
        span: nil)
    }
    switch unit {
    case UInt8(ascii: "d"): return days(today - n + 1, today + 1)
    case UInt8(ascii: "w"): return days(today - 7 * n + 1, today + 1)
    default:
      let (_, _, d) = Calendar.civil(fromDays: today)
      var ty = y
      var tm = m - n
      while tm < 1 {
        tm += 12
        ty -= 1
      }
      let start = Calendar.days(year: ty, month: tm, day: min(d, Calendar.daysInMonth(year: ty, month: tm)))
      return days(start + 1, today + 1)
    }
  }

  private static func days(_ from: Int, _ to: Int) -> Period {
    Period(start: WallTime(from) * Calendar.microsPerDay, end: WallTime(to) * Calendar.microsPerDay)
  }

  private static func monthStart(_ year: Int, _ month: Int) -> Int {
    var y = year
    var m = month
    while m < 1 { m += 12; y -= 1 }
    while m > 12 { m -= 12; y += 1 }
    return Calendar.days(year: y, month: m, day: 1)
  }

  private static func floorDiv(_ a: WallTime, _ b: WallTime) -> WallTime {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }
}

extension Query {
  /// Unquoted field values written like a relative date (`next-week`, `this-decade`, `tomorrow`)
  /// that are none: against a date field each is a query error, against text a plain word. Without
  /// a FILE, `--explain` cannot know which, so it names them (Docs/QueryLanguage.md, "Explain").
  public var unknownRelativeDateWords: [String] {
    var words: [String] = []
    func walk(_ e: Expr) {
      switch e {
      case .and(let parts, _), .or(let parts, _): parts.forEach(walk)
      case .not(let inner, _): walk(inner)
      case .term(.field(_, let values, _)):
        for case .equals(let literal) in values where !literal.quoted {
          let lower = literal.text.lowercased()
          let shaped = ["this-", "last-", "next-"].contains { lower.hasPrefix($0) }
            || lower == "tomorrow"
          let known: Bool
          do throws(PlanError) { known = try RelativeDate.period(lower, now: 0) != nil } catch {
            known = true
          }
          if shaped && !known && !words.contains(literal.text) { words.append(literal.text) }
        }
      case .term: break
      }
    }
    if let filter { walk(filter) }
    return words
  }
}
