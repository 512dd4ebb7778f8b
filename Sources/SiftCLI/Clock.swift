#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// "Now" for relative dates (Docs/QueryLanguage.md, Filter terms): `--now`, else `SIFT_NOW`, else the local wall clock.
enum Clock {
  /// The wall time `text` names, or `nil` when it is not a date or date-time.
  static func parse(_ text: String) -> WallTime? {
    guard let d = DateParser.parse(text, partial: false) else { return nil }
    return d.time
  }

  /// The offset east of UTC, in microseconds, of a `--tz` value (Docs/Formats.md, Dates): `UTC`,
  /// `Z`, or `±HH:MM`, `±HHMM`, `±HH`, also after `UTC`.
  static func zoneOffset(_ text: String) -> WallTime? {
    let upper = text.uppercased()
    if upper == "UTC" || upper == "Z" || upper == "GMT" { return 0 }
    let rest = upper.hasPrefix("UTC") ? upper.dropFirst(3) : Substring(upper)
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    let digits = Array(rest.dropFirst().filter { $0 != ":" }.utf8)
    guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    let value = digits.map { Int($0) - 48 }
    let hours = value[0] * 10 + value[1]
    let minutes = digits.count == 4 ? value[2] * 10 + value[3] : 0
    guard hours <= 14, minutes <= 59 else { return nil }
    let seconds = WallTime(hours * 3600 + minutes * 60)
    return (sign == "-" ? -seconds : seconds) * 1_000_000
  }

  /// The zone a `--tz` value names: UTC or a fixed offset, else a zone name with a zone file
  /// (`Europe/Berlin`); `nil` for neither (Docs/QueryLanguage.md, Instants).
  static func zone(named text: String, environment: [String: String]) -> ZoneRules? {
    if let offset = zoneOffset(text == "UTC0" ? "UTC" : text) { return ZoneRules(offset: offset) }
    return ZoneFile.rules(named: text, environment: environment)
  }

  /// The zone of dates without an offset when `--tz` is not given: the zone `TZ` names, else the
  /// machine's (`/etc/localtime`), else the machine's offset now (Docs/QueryLanguage.md,
  /// Instants).
  static func zone(environment: [String: String]) -> ZoneRules {
    if let tz = environment["TZ"], !tz.isEmpty, let zone = zone(named: tz, environment: environment) {
      return zone
    }
    return ZoneFile.read(path: "/etc/localtime") ?? ZoneRules(offset: localOffset())
  }

  /// The machine's zone's offset east of UTC now, in microseconds.
  static func localOffset() -> WallTime {
    var t = time(nil)
    var parts = tm()
    localtime_r(&t, &parts)
    return WallTime(parts.tm_gmtoff) * 1_000_000
  }

  /// The local wall time now.
  static func localNow() -> WallTime {
    var t = time(nil)
    var parts = tm()
    localtime_r(&t, &parts)
    let days = Calendar.days(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    let seconds = Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec)
    return WallTime(days) * Calendar.microsPerDay + WallTime(seconds) * 1_000_000
  }
}
