import SiftCore

@testable import SiftCLI

/// What one in-process run of sift wrote and returned.
struct SiftResult {
  var stdout: [UInt8]
  var stderr: String
  var status: ExitStatus
  var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs sift in-process from the package root (where `swift test` runs), as the golden cases do.
func sift(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = ["LANG": "C.UTF-8", "TZ": "UTC"]) -> SiftResult {
  let out = MemorySink()
  let err = MemorySink()
  let status = run(
    ProcessContext(
      arguments: arguments, environment: environment, stdin: ByteSource(bytes: stdin, name: "stdin"),
      stdout: out, stderr: err))
  return SiftResult(stdout: out.bytes, stderr: err.text, status: status)
}
