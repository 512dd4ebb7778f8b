import Testing
@testable import SiftScreen

@Suite struct StyledLineTests {
  @Test func textJoinsTheSpans() {
    let line = StyledLine([StyledSpan("[Status: received]", .chipActive), StyledSpan(" · 1 filter")])
    #expect(line.text == "[Status: received] · 1 filter")
  }
}
