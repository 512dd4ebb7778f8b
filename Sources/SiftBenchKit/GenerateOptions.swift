/// The options of `sift-bench gen`.
public struct GenerateOptions: Equatable, Sendable {
  /// The one-line usage of `sift-bench gen`.
  public static let usage =
    "usage: sift-bench gen --rows N --format csv|ndjson [--seed S] [--kind grn] [--out FILE]"

  /// How many records to write.
  public var rows: Int
  public var format: RecordFormat
  /// The same seed gives the same bytes.
  public var seed: UInt64 = 1
  /// The file to write, or nil for standard output.
  public var outputPath: String?

  /// The options with these values.
  public init(rows: Int, format: RecordFormat, seed: UInt64 = 1, outputPath: String? = nil) {
    self.rows = rows
    self.format = format
    self.seed = seed
    self.outputPath = outputPath
  }

  /// Reads the arguments that follow `gen`.
  public init(arguments: [String]) throws(UsageError) {
    var rows: Int?
    var format: RecordFormat?
    var seed: UInt64 = 1
    var outputPath: String?
    var rest = arguments[...]
    while let option = rest.popFirst() {
      guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
      switch option {
      case "--rows":
        guard let n = Int(value), n >= 0 else {
          throw UsageError("--rows needs a count, not '\(value)'")
        }
        rows = n
      case "--format":
        guard let f = RecordFormat(rawValue: value) else {
          throw UsageError("--format is csv or ndjson, not '\(value)'")
        }
        format = f
      case "--seed":
        guard let s = UInt64(value) else {
          throw UsageError("--seed needs a number, not '\(value)'")
        }
        seed = s
      case "--kind":
        guard value == "grn" else { throw UsageError("--kind can only be grn, not '\(value)'") }
      case "--out":
        outputPath = value
      default:
        throw UsageError("unknown option '\(option)'")
      }
    }
    guard let rows else { throw UsageError("--rows is required") }
    guard let format else { throw UsageError("--format is required") }
    self.init(rows: rows, format: format, seed: seed, outputPath: outputPath)
  }
}

/// A command line `sift-bench` cannot run: what is wrong, for one line on standard error.
public struct UsageError: Error, Equatable, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
}
