import Testing
@testable import SiftCore

/// JSONTestSuite (nst/JSONTestSuite): `y_` accepted, `n_` rejected with a position, `i_` either
/// way without a crash or a hang.
@Suite
struct JSONConformanceTests {
  static let folder = "JSONTestSuite/test_parsing"
  static let files = ConformanceFiles.names(in: folder)

  @Test func suiteIsThere() {
    #expect(Self.files.filter { $0.hasPrefix("y_") }.count > 90)
    #expect(Self.files.filter { $0.hasPrefix("n_") }.count > 180)
  }

  @Test(arguments: files.filter { $0.hasPrefix("y_") })
  func accepts(file: String) throws {
    let bytes = try ConformanceFiles.bytes("\(Self.folder)/\(file)")
    #expect(throws: Never.self) { try JSONValidator.validate(bytes, name: file) }
  }

  @Test(arguments: files.filter { $0.hasPrefix("n_") })
  func rejectsWithPosition(file: String) throws {
    let bytes = try ConformanceFiles.bytes("\(Self.folder)/\(file)")
    let error = #expect(throws: InputError.self) { try JSONValidator.validate(bytes, name: file) }
    #expect((error?.line ?? 0) >= 1)
    #expect((error?.column ?? 0) >= 1)
  }

  @Test(arguments: files.filter { $0.hasPrefix("i_") })
  func decidesWithoutCrashing(file: String) throws {
    let bytes = try ConformanceFiles.bytes("\(Self.folder)/\(file)")
    _ = try? JSONValidator.validate(bytes, name: file)
  }
}
