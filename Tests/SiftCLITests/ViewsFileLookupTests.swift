import SiftCore
import Testing

@testable import SiftCLI

/// Where the views file is looked for (Docs/Views.md, The views file).
@Suite struct ViewsFileLookupTests {
  func candidates(_ arguments: [String], _ environment: [String: String]) throws -> [String] {
    return ViewsFileLookup(
      options: try Options.parse(arguments), environment: environment, currentDirectory: "/work"
    ).candidates
      .map { ($0.explicit ? "!" : "") + $0.path }
  }

  @Test func configOptionComesFirstAndMustExist() throws {
    #expect(
      try candidates(["--config", "a.json", "--views"], ["SIFT_CONFIG": "b.json"]) == ["!a.json"])
  }

  @Test func thenTheEnvironmentVariable() throws {
    #expect(try candidates(["--views"], ["SIFT_CONFIG": "b.json", "HOME": "/h"]) == ["!b.json"])
  }

  @Test func thenTheCurrentDirectoryThenXDGConfigHome() throws {
    #expect(
      try candidates(["--views"], ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
        == ["/work/sift.json", "/x/sift/config.json"])
  }

  @Test func withoutXDGConfigHomeTheHomeConfigFolder() throws {
    #expect(
      try candidates(["--views"], ["XDG_CONFIG_HOME": "", "HOME": "/h", "SIFT_CONFIG": ""])
        == ["/work/sift.json", "/h/.config/sift/config.json"])
  }
}
