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
