#if canImport(Glibc)
  import Glibc
#endif
import SiftCore
import SiftScreen

/// An export from the screen (Docs/Interactive.md, Marking and export): the plan of the records
/// on screen run again into a file, through sift's own writer for the format its extension
/// names, every record of the result or the marked ones. An existing file is replaced only when
/// the order says so; a failed export leaves no file behind.
struct ScreenExport {
  let order: ExportOrder
  /// The workbook's sheet name (`.xlsx`).
  let sheetName: String

  /// Writes the file and says how many records went in; `frontend` maps a failed run.
  func write(
    _ plan: Plan, over dataset: Dataset, id: Int, watch: @escaping RunWatch, view: ViewContext?,
    frontend: Frontend
  ) throws(Problem) -> RunOutcome {
    let path = order.path
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (order.replace ? O_TRUNC : O_EXCL), 0o644)
    guard fd >= 0 else {
      let exists = errno == EEXIST
      let reason = String(cString: strerror(errno))
      return .exportRefused(id: id, path: path, exists: exists, message: "sift: \(path): \(reason)")
    }
    defer { close(fd) }
    let output = OutputBuffer(sink: DescriptorSink(fd: fd))
    let writer = makeWriter(
      WriterOptions(
        format: order.format, numericColumns: plan.outputTypes.map { $0 == .number },
        endsWithTotal: !plan.aggregates.isEmpty && !plan.group.isEmpty,
        columnReadings: plan.outputReadings, sheetName: sheetName),
      output: output)
    let picked = order.records.map { PickedRecordsWriter(writer, picked: $0) }
    do throws(Problem) {
      let summary = try frontend.run(text: "", view: view) { () throws(SiftError) in
        let summary = try dataset.run(plan, writer: picked ?? writer, watch: watch)
        do throws(OutputError) { try output.flush() } catch { throw SiftError.output(error) }
        return summary
      }
      return .exported(id: id, path: path, records: picked?.written ?? summary.shown)
    } catch {
      unlink(path)
      throw error
    }
  }
}
