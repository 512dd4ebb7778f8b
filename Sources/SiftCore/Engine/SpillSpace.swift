/// The temporary space a sort's spilled runs hold: bytes written less bytes freed, and the most
/// held at once (Docs/Performance.md, Sorting beyond memory). Used on the thread that spills.
final class SpillSpace {
  private(set) var held = 0
  private(set) var peak = 0

  func wrote(_ count: Int) {
    held += count
    peak = max(peak, held)
  }

  func freed(_ count: Int) {
    held -= count
  }
}
