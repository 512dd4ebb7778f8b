extension Pass {
  /// A run of consecutive records in output order that share a group value.
  struct GroupRun {
    var label: String
    var range: Range<Int>
  }

  /// The kept matches in output order (by group value, then the sort keys, then input order),
  /// with each one's group value (empty without `group:`).
  func orderKept() -> (order: [Match], groups: [[UInt8]]) {
    let n = kept.count
    let groupField = plan.group
    var groupKeys: [SortValue] = []
    var groupBytes: [[UInt8]] = []
    var sortKeys: [[SortValue]] = Array(repeating: [], count: plan.sort.count)
    groupKeys.reserveCapacity(groupField == nil ? 0 : n)
    // Accessors per source for the group field and each sort key.
    var accessors: [Int32: (group: (@Sendable (RowView) -> FieldValue)?, sort: [@Sendable (RowView) -> FieldValue])] = [:]
    for (source, c) in compiled {
      accessors[Int32(source)] = (
        groupField.map { plan.accessor(for: $0, layout: c.layout) },
        plan.sort.map { plan.accessor(for: $0.field, layout: c.layout) }
      )
    }
    for m in kept {
      guard let a = accessors[m.source] else { continue }
      keptBatches[Int(m.batch)].withRows { rows in
        let row = rows.row(Int(m.row))
        if let g = a.group {
          let v = g(row)
          groupKeys.append(SortValue(v))
          groupBytes.append(v.isNullLike ? [] : v.decodedBytes())
        }
        for k in 0..<a.sort.count { sortKeys[k].append(SortValue(a.sort[k](row))) }
      }
    }
    let descending = plan.sort.map(\.descending)
    let hasGroup = groupField != nil
    var indices = Array(0..<n)
    indices.sort { i, j in
      if hasGroup {
        let c = SortValue.compare(groupKeys[i], groupKeys[j], descending: false)
        if c != 0 { return c < 0 }
        if groupBytes[i] != groupBytes[j] { return groupBytes[i].lexicographicallyPrecedes(groupBytes[j]) }
      }
      for k in 0..<descending.count {
        let c = SortValue.compare(sortKeys[k][i], sortKeys[k][j], descending: descending[k])
        if c != 0 { return c < 0 }
      }
      return i < j
    }
    return (indices.map { kept[$0] }, hasGroup ? indices.map { groupBytes[$0] } : [])
  }

  /// The runs of equal group values among the first `count` ordered records; one run without
  /// `group:`.
  func groupRuns(_ groups: [[UInt8]], upTo count: Int) -> [GroupRun] {
    guard plan.group != nil else { return count > 0 ? [GroupRun(label: "", range: 0..<count)] : [] }
    var runs: [GroupRun] = []
    var start = 0
    while start < count {
      var end = start + 1
      while end < count && groups[end] == groups[start] { end += 1 }
      runs.append(GroupRun(label: String(decoding: groups[start], as: UTF8.self), range: start..<end))
      start = end
    }
    return runs
  }
}
