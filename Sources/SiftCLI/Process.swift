#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

extension SiftCLI {
  /// Runs sift as the process: real arguments, environment, descriptors and terminal.
  public static func main() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    var environment: [String: String] = [:]
    var p = environ
    while let entry = p.pointee {
      let s = String(cString: entry)
      if let eq = s.firstIndex(of: "=") {
        environment[String(s[..<eq])] = String(s[s.index(after: eq)...])
      }
      p += 1
    }
    // Standard output's terminal, else standard error's: the bar fits the terminal it is
    // written to even when the records go to a pipe or a file.
    var width: Int?
    var height: Int?
    for fd: Int32 in [1, 2] where width == nil {
      var ws = winsize()
      if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 {
        width = Int(ws.ws_col)
        // Only standard output's height matters: the pager pages what goes there.
        if fd == 1 && ws.ws_row > 0 { height = Int(ws.ws_row) }
      }
    }
    let context = ProcessContext(
      arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
      stdin: ByteSource(fileDescriptor: 0, name: "stdin"), stdinIsTerminal: isatty(0) == 1,
      stdout: DescriptorSink(fd: 1), stdoutIsTerminal: isatty(1) == 1,
      stderr: DescriptorSink(fd: 2), stderrIsTerminal: isatty(2) == 1, terminalWidth: width, terminalHeight: height,
      currentDirectory: ".")
    return run(context).rawValue
  }
}

/// The namespace of the process entry point.
public enum SiftCLI {}

/// Ends the process with `status`.
public func exitProcess(_ status: Int32) -> Never {
  exit(status)
}

/// Calls `body` with a NULL-terminated C array of `strings`: the arguments or
/// environment of a program sift starts (the pager, an engine's client).
func withCStrings<R>(
  _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R
) -> R {
  var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
  defer { pointers.forEach { free($0) } }
  pointers.append(nil)
  return body(pointers)
}
