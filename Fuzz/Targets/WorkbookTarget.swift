/// The workbook and ZIP readers: any bytes (a ZIP archive, an .xlsx, damaged) give records or
/// an error, never a crash (Docs/Formats.md, Workbooks).
enum WorkbookTarget {
  static func run(_ bytes: [UInt8]) {
    do {
      let opened = try ReaderFactory.makeReader(
        source: ByteSource(bytes: bytes, name: "t.xlsx"), format: nil,
        options: ReaderOptions(name: "t.xlsx"))
      _ = ReadOutcome(opened.reader)
    } catch {
      _ = "\(error.message)"
    }
  }
}
