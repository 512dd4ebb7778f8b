#if canImport(Glibc)
  import Glibc
#endif
import SiftBenchKit
import SiftCLI
import SiftCore

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
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return failure("cannot write \(path): \(systemError())") }
  }
  defer { if fd != 1 { close(fd) } }
  signal(SIGPIPE, SIG_IGN)
  do throws(OutputError) {
    try GRNWriter.write(
      rows: options.rows, format: options.format, seed: options.seed, to: DescriptorSink(fd: fd))
  } catch {
    switch error {
    case .closed: return 0
    case .failed(let message):
      return failure("cannot write \(options.outputPath ?? "standard output"): \(message)")
    }
  }
  return 0
}
