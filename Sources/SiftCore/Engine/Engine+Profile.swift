/// What `sift --fields` shows about one field.
public struct FieldProfile: Sendable, Equatable {
  /// The name a query uses (`customer.name` for nested JSON).
  public var name: String
  public var type: ColumnType
  /// Records whose value is not empty, missing or a null token.
  public var nonEmpty: Int
  /// Up to three distinct non-empty values, in input order.
  public var samples: [String]
}

extension Engine {
  /// Reads every record and profiles every field the query language can name.
  public func profile() throws(SiftError) -> (fields: [FieldProfile], total: Int) {
    var fields: [ResolvedField] = []
    for (i, name) in schema.names.enumerated() {
      fields.append(ResolvedField(index: i, path: [], name: name))
      for p in schema.nestedPaths[i] ?? [] {
        fields.append(ResolvedField(index: i, path: p.split(separator: ".").map(String.init), name: name + "." + p))
      }
    }
    var profiles = fields.map { FieldProfile(name: $0.name, type: type(of: $0), nonEmpty: 0, samples: []) }
    let plan: Plan
    do throws(PlanError) { plan = try self.plan(Query(), now: 0) } catch { throw .plan(error) }
    var total = 0
    try forEachBatch { batch, reader in
      let layout = SourceLayout(names: readers[reader].fieldNames, schema: schema, encoding: batch.encoding)
      let access = fields.map { plan.accessor(for: $0, layout: layout) }
      batch.withRows { rows in
        total += rows.count
        for r in 0..<rows.count {
          let row = rows.row(r)
          for f in fields.indices {
            let v = access[f](row)
            guard !v.isNullLike else { continue }
            profiles[f].nonEmpty += 1
            if profiles[f].samples.count < 3 {
              let s = v.form == .jsonNested ? JSONText.minified(v.raw) : v.string
              if !profiles[f].samples.contains(s) { profiles[f].samples.append(s) }
            }
          }
        }
      }
    }
    return (profiles, total)
  }
}
