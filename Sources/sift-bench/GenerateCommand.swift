import SiftBenchKit
import SiftCore

#if canImport(Glibc)
  import Glibc
#endif

/// `sift-bench gen --rows N --format csv|ndjson [--seed S] [--kind grn] [--out FILE]`: writes N
/// generated GRN records to FILE or standard output.
func generateCommand(_ arguments: [String]) -> Int32 {
  let options: GenerateOptions
  do throws(UsageError) {
    options = try GenerateOptions(arguments: arguments)
  } catch {
    return usageFailure(GenerateOptions.usage, problem: error.message)
  }
  var fd: Int32 = 1
  if let path = options.outputPath {
    guard let file = createFile(path) else {
      return failure("cannot write \(path): \(systemError())")
    }
    fd = file
  }
  defer { if fd != 1 { close(fd) } }
  signal(SIGPIPE, SIG_IGN)
  do throws(OutputError) {
    try GRNWriter.write(
      rows: options.rows, format: options.format, seed: options.seed, to: DescriptorSink(fd: fd))
  } catch .closed where options.outputPath == nil {
    return 0  // `sift-bench gen … | head`: the reader had enough.
  } catch {
    return writeFailure(options.outputPath ?? "standard output", error)
  }
  return 0
}
