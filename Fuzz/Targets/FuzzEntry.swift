// The libFuzzer entry: `SIFT_FUZZ_TARGET` names the target that tests each input (Fuzz/README.md).

#if canImport(Glibc)
  import Glibc
#endif

let targets: [String: ([UInt8]) -> Void] = [
  "csv": CSVReaderTarget.run,
  "json": JSONReaderTarget.run,
  "workbook": WorkbookTarget.run,
  "query": QueryTarget.run,
  "pipeline": PipelineTarget.run,
]

/// The target chosen when the run started.
let chosenTarget: ([UInt8]) -> Void = {
  let name = getenv("SIFT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
  guard let target = targets[name] else {
    fputs("SIFT_FUZZ_TARGET must be one of: \(targets.keys.sorted().joined(separator: ", "))\n", stderr)
    exit(2)
  }
  return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  chosenTarget(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
  return 0
}
