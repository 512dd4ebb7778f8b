/// `n` with its digits grouped by three with `,`: `1203` → `1,203`.
public func groupedDigits(_ n: Int) -> String {
  let digits = String(n.magnitude)
  var grouped = n < 0 ? "-" : ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
    grouped.append(digit)
  }
  return grouped
}
