import SiftCore

/// `sift-bench scan FILE [--format csv|tsv|json|ndjson]`: reads FILE with its reader, touching
/// every field span, and prints the records read, MB/s and records/s.
func scanBenchmark(arguments: [String]) -> Int32 {
  var path: String?
  var format: InputFormat?
  var rest = arguments[...]
  while let argument = rest.popFirst() {
    if argument == "--format" || argument == "-f" {
      guard let name = rest.popFirst(), let named = InputFormat(rawValue: name) else {
        print("sift-bench scan: --format needs one of csv, tsv, json, ndjson")
        return 2
      }
      format = named
    } else {
      path = argument
    }
  }
  guard let path else {
    print("usage: sift-bench scan FILE [--format csv|tsv|json|ndjson]")
    return 2
  }
  do {
    let source = try ByteSource(path: path)
    let size = source.knownSize ?? 0
    let clock = ContinuousClock()
    let started = clock.now
    let opened = try ReaderFactory.makeReader(
      source: source, format: format, options: ReaderOptions(name: path))
    var records = 0
    var fieldBytes = 0
    while let batch = try opened.reader.nextBatch() {
      records += batch.count
      batch.withRows { cursor in
        let spans = cursor.spans
        var k = 0
        while k < spans.count {
          if spans[k] >= 0 { fieldBytes &+= Int(spans[k + 1] &- spans[k]) }
          k += 2
        }
      }
    }
    let elapsed = started.duration(to: clock.now)
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let megabytes = Double(size) / 1e6
    print(
      "\(opened.format.rawValue) \(path): \(records) records, \(megabytes) MB, field bytes "
        + "\(fieldBytes), \(seconds) s, \(Int(megabytes / seconds)) MB/s, "
        + "\(Int(Double(records) / seconds)) records/s")
    return 0
  } catch {
    print("sift-bench scan: \(error)")
    return 2
  }
}
