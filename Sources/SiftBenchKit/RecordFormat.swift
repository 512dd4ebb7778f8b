/// The format `sift-bench gen` writes.
public enum RecordFormat: String, CaseIterable, Sendable {
  /// RFC 4180 CSV with a header row and LF line ends.
  case csv
  /// One JSON object per line.
  case ndjson
}
