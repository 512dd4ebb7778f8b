import SiftCore
#if canImport(Glibc)
  import Glibc
#endif

/// Writes `line` to standard error.
func printError(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { try? DescriptorSink(fd: 2).write($0) }
}

/// Reports a command line that cannot run, `problem` (if any) then the one-line `usage`;
/// returns exit status 2.
func usageFailure(_ usage: String, problem: String? = nil) -> Int32 {
  if let problem { printError("sift-bench: \(problem)") }
  printError(usage)
  return 2
}

/// Reports a failure to read or write a file; returns exit status 1.
func failure(_ message: String) -> Int32 {
  printError("sift-bench: \(message)")
  return 1
}

/// The current `errno` as text.
func systemError() -> String { String(cString: strerror(errno)) }
