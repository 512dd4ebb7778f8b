import SiftBenchKit
import SiftCore

#if canImport(Glibc)
  import Glibc
#endif

/// `sift-bench sample DIR`: writes the sample data files into DIR (made if missing), the same
/// bytes every time.
func sampleCommand(_ arguments: [String]) -> Int32 {
  guard arguments.count == 1, let directory = arguments.first else {
    return usageFailure("usage: sift-bench sample DIR")
  }
  guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
    return failure("cannot make \(directory): \(systemError())")
  }
  for file in SampleData.files() {
    let path = directory + "/" + file.name
    guard let fd = createFile(path) else {
      return failure("cannot write \(path): \(systemError())")
    }
    defer { close(fd) }
    var writeError: OutputError?
    file.bytes.withUnsafeBufferPointer { bytes in
      do throws(OutputError) { try DescriptorSink(fd: fd).write(bytes) } catch {
        writeError = error
      }
    }
    if let writeError { return writeFailure(path, writeError) }
  }
  return 0
}
