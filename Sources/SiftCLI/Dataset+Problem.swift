import SiftCore

/// The dataset's plans and runs with their errors as problems, mapped in this one place: a plan
/// error under the query as typed (`text`) or under the view's key its words came from, a run's
/// input or write error as its own (Docs/Architecture.md, Errors).
extension Dataset {
  func plan(
    _ query: Query, now: WallTime, for intent: Plan.Intent = .records, text: String,
    view: ViewContext?
  ) throws(Problem) -> Plan {
    do throws(PlanError) { return try plan(query, now: now, for: intent) } catch {
      throw .plan(error, query: text, view: view)
    }
  }

  func run(
    _ plan: Plan, writer: RecordWriter?, watch: RunWatch? = nil, text: String, view: ViewContext?
  ) throws(Problem) -> RunSummary {
    do throws(SiftError) { return try run(plan, writer: writer, watch: watch) } catch {
      throw Problem(error, query: text, view: view)
    }
  }
}
