import Testing
@testable import SiftCLI

@Test func exitStatusCodes() {
  #expect(ExitStatus.matched.rawValue == 0)
  #expect(ExitStatus.noMatch.rawValue == 1)
  #expect(ExitStatus.error.rawValue == 2)
}
