/// The query parser and planner: any query text gives a plan or an error, never a crash; a
/// query that parses reads back the same from its canonical form (Docs/QueryLanguage.md).
enum QueryTarget {
  /// A small dataset with text, number and date fields for queries to be planned against.
  static let csv = Array(
    """
    id,status,customer,qty,price,date,note
    1,received,Acme,5,1.50,2024-03-01,"two
    lines"
    2,pending,Müller GmbH,,20,2024-03-02,
    3,Received,"Smith, Jones",12,3.25,2024-02-28,x
    1234567890123456789,cancelled,ACME,-4,1e3,2023-12-31,📦

    """.utf8)

  static func run(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let query: Query
    do {
      query = try Parser.parse(text)
    } catch {
      if error.offset < 0 || error.offset > text.utf8.count {
        propertyFailed("error offset \(error.offset) outside the query")
      }
      _ = error.rendered(against: text)
      return
    }
    let canonical = query.canonicalForm
    guard let again = try? Parser.parse(canonical), again.isEquivalent(to: query),
      again.canonicalForm == canonical
    else {
      propertyFailed("canonical form \(canonical) does not read back")
    }
    do {
      let opened = try ReaderFactory.makeReader(
        source: ByteSource(bytes: csv, name: "q.csv"), format: .csv,
        options: ReaderOptions(name: "q.csv"))
      let dataset = Dataset(
        inputs: [DatasetInput(reader: opened.reader)], parallel: ParallelOptions(workers: 1))
      let plan = try dataset.plan(query, now: 1_710_000_000)
      _ = plan.explanation(inputs: [("q.csv", "1 thread")])
      let sink = MemorySink()
      let buffer = OutputBuffer(sink: sink)
      _ = try dataset.run(plan, writer: makeWriter(WriterOptions(format: .csv), output: buffer))
      try buffer.flush()
    } catch {
      _ = "\(error)"
    }
  }
}
