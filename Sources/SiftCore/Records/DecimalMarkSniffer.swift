/// Decides a delimited file's decimal mark from the first bytes it holds (Docs/Formats.md,
/// Decimal commas): the number-shaped fields of the sample vote, each only where its shape
/// tells the two conventions apart (`12,5` and `1.234,50` say comma; `12.5` and `1,234.50`
/// say point; `1.200` and `1,200` say nothing).
public enum DecimalMarkSniffer {
  /// What the sample's number-shaped values showed.
  public struct Evidence: Sendable, Equatable {
    /// Values only a decimal comma reads (`12,5`, `1.234,50`, `-0,50`).
    public var comma = 0
    /// Values only a decimal point reads (`12.5`, `1,234.50`).
    public var point = 0
    /// Values both read, differently (`1.200`, `1,200`).
    public var ambiguous = 0
  }

  /// What the sample of a file decided, and what it showed.
  public struct Decision: Sendable, Equatable {
    public var mark: DecimalMark
    public var evidence: Evidence

    /// The note that says the choice (Docs/Formats.md, Decimal commas): always for a decimal
    /// comma; for a point, only where the sample left room for doubt (values written both
    /// ways, or only values like `1.200`). `nil` for a file that gave no reason to ask.
    public func note(name: String) -> String? {
      let choose = "; use --decimal to choose"
      switch mark {
      case .comma where evidence.point > 0:
        return "note: \(name) writes numbers both ways (\(evidence.comma) like 12,5,"
          + " \(evidence.point) like 12.5); reading it with \(mark.described)\(choose)"
      case .comma:
        return "note: reading \(name) with \(mark.described)\(choose)"
      case .point where evidence.comma > 0:
        return "note: \(name) writes numbers both ways (\(evidence.comma) like 12,5,"
          + " \(evidence.point) like 12.5); reading it with \(mark.described)\(choose)"
      case .point where evidence.point == 0 && evidence.ambiguous > 0:
        return "note: \(name) writes numbers like 1.200 that a decimal comma reads as 1200;"
          + " reading it with \(mark.described)\(choose)"
      case .point:
        return nil
      }
    }
  }

  /// The mark the sample of a file delimited by `delimiter` shows: `.comma` when more values
  /// only read with a decimal comma than only with a point (those are then text), else
  /// `.point`. Only `;`-
  /// and tab-delimited files are looked at: in a `,` file a decimal comma would have to be
  /// quoted, and such files write points.
  public static func decide(_ sample: [UInt8], delimiter: UInt8, header: Bool) -> Decision {
    guard delimiter == UInt8(ascii: ";") || delimiter == .tab else {
      return Decision(mark: .point, evidence: Evidence())
    }
    let evidence = self.evidence(sample, delimiter: delimiter, header: header)
    let comma = evidence.comma > evidence.point
    return Decision(mark: comma ? .comma : .point, evidence: evidence)
  }

  /// Counts the sample's number-shaped fields by what they say of the decimal mark. The last
  /// line is left out when the sample ends inside it; quotes around a field are dropped.
  public static func evidence(_ sample: [UInt8], delimiter: UInt8, header: Bool) -> Evidence {
    var evidence = Evidence()
    var end = sample.count
    if end == FormatSniffer.sampleSize {
      while end > 0 && sample[end - 1] != .lineFeed { end -= 1 }
    }
    sample.withUnsafeBufferPointer { b in
      var lineStart = 0
      var skipLine = header
      while lineStart < end {
        var lineEnd = lineStart
        while lineEnd < end && b[lineEnd] != .lineFeed { lineEnd += 1 }
        if skipLine {
          skipLine = false
        } else {
          var fieldStart = lineStart
          var i = lineStart
          while i <= lineEnd {
            if i == lineEnd || b[i] == delimiter {
              count(UnsafeBufferPointer(rebasing: b[field(b, fieldStart, i)]), into: &evidence)
              fieldStart = i + 1
            }
            i += 1
          }
        }
        lineStart = lineEnd + 1
      }
    }
    return evidence
  }

  /// The field's bytes without a line end's CR and without surrounding quotes.
  private static func field(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
    var s = start
    var e = end
    if e > s && b[e - 1] == .carriageReturn { e -= 1 }
    if e - s >= 2 && b[s] == .quote && b[e - 1] == .quote {
      s += 1
      e -= 1
    }
    return s..<e
  }

  /// Adds what one field says: a field with a `.` or `,` that one convention reads as a number
  /// and the other does not, or that both read as different numbers.
  private static func count(_ field: UnsafeBufferPointer<UInt8>, into evidence: inout Evidence) {
    guard field.contains(where: { $0 == .dot || $0 == .comma }) else { return }
    let asComma = NumberParser.parse(field, mark: .comma)
    let asPoint = NumberParser.parse(field, mark: .point)
    switch (asComma, asPoint) {
    case (_?, nil): evidence.comma += 1
    case (nil, _?): evidence.point += 1
    case (let c?, let p?): if c != p { evidence.ambiguous += 1 }
    case (nil, nil): break
    }
  }
}
