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

extension Dataset {
  /// Reads every record and profiles every field the query language can name, also JSON keys
  /// first seen after the sample on an input not scanned for them (standard input): they are
  /// added as they come, typed by their own values (Docs/Formats.md, Several inputs).
  public func profile() throws(SiftError) -> (fields: [FieldProfile], total: Int) {
    var schema = self.schema
    var fields: [ResolvedField] = []
    for (i, name) in schema.names.enumerated() {
      fields.append(ResolvedField(index: i, path: [], name: name))
      for p in schema.nestedPaths[i] ?? [] {
        fields.append(ResolvedField(index: i, path: p.split(separator: ".").map(String.init), name: name + "." + p))
      }
    }
    var profiles = fields.map { FieldProfile(name: $0.name, type: type(of: $0), nonEmpty: 0, samples: []) }
    var plan: Plan
    do throws(PlanError) { plan = try self.plan(Query(), now: 0) } catch { throw .plan(error) }
    let run = try startRun()
    var total = 0
    var lateTypes: [TypeInference?] = Array(repeating: nil, count: fields.count)
    try run.forEachBatch { (batch, reader) throws(SiftError) in
      let names = run.readers[reader].fieldNames
      var layout = SourceLayout(names: names, schema: schema, encoding: batch.encoding)
      let late = batch.encoding == .json ? layout.fieldsOutsideSchema(names) : []
      if !late.isEmpty {
        for name in late {
          schema.names.append(name)
          fields.append(ResolvedField(index: schema.names.count - 1, path: [], name: name))
          profiles.append(FieldProfile(name: name, type: .empty, nonEmpty: 0, samples: []))
          lateTypes.append(TypeInference())
        }
        do throws(PlanError) {
          plan = try Plan(query: Query(), schema: schema, now: 0) { type(of: $0) }
        } catch {
          throw .plan(error)
        }
        layout = SourceLayout(names: names, schema: schema, encoding: batch.encoding)
      }
      let access = fields.map { plan.accessor(for: $0, layout: layout) }
      batch.withRows { rows in
        total += rows.count
        for r in 0..<rows.count {
          let row = rows.row(r)
          for f in fields.indices {
            let v = access[f](row)
            lateTypes[f]?.add(v)
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
    for (f, inference) in lateTypes.enumerated() {
      if let inference { profiles[f].type = inference.type }
    }
    return (profiles, total)
  }
}
