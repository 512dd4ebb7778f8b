import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// A table taller than the terminal goes through the pager (Docs/CommandLine.md, The pager).
/// The pager here is a script that records its standard input in a file.
@Suite struct PagerTests {
  struct Paged {
    var received: String?
    var stdout: String
    /// The exit status: 0 matched, 1 none matched.
    var status: Int32
  }

  /// Runs sift with standard output a 100×`height` terminal and a recording pager in
  /// `variable` (`SIFT_PAGER` or `PAGER`).
  func paged(
    _ arguments: [String], height: Int = 10, variable: String = "SIFT_PAGER",
    extra: [String: String] = [:]
  ) throws -> Paged {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-pager-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pager = folder.appendingPathComponent("pager")
    let record = folder.appendingPathComponent("received")
    try Data("#!/bin/sh\ncat > '\(record.path)'\n".utf8).write(to: pager)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: pager.path)
    var environment = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", variable: pager.path]
    environment.merge(extra) { $1 }
    let out = MemorySink()
    let err = MemorySink()
    let status = run(
      ProcessContext(
        arguments: arguments, environment: environment, stdin: ByteSource(bytes: [], name: "stdin"),
        stdout: out, stdoutIsTerminal: true, stderr: err, terminalWidth: 100,
        terminalHeight: height))
    let received = try? String(contentsOf: record, encoding: .utf8)
    return Paged(received: received, stdout: out.text, status: status.rawValue)
  }

  @Test func aTallTableGoesThroughThePagerWithTitleAndBarOnTop() throws {
    let result = try paged(["@grn", "limit:30 fields:grn_no,status", "--config", "SampleData/sift.json", "--color=never"])
    let received = try #require(result.received, "the pager was not run")
    let lines = received.split(separator: "\n")
    #expect(lines[0].hasPrefix("GRN List — grn.csv"))
    #expect(lines[1].contains("1,500 records · 30 shown"))
    #expect(lines[2].hasPrefix("grn_no"))
    #expect(lines.count == 2 + 2 + 30)
    #expect(result.stdout.isEmpty)
    #expect(result.status == 0)
  }

  @Test func aTableThatFitsIsWrittenDirectly() throws {
    let result = try paged(["limit:3 fields:grn_no,status", "SampleData/grn.csv"], height: 10)
    #expect(result.received == nil)
    #expect(result.stdout.split(separator: "\n").count == 6)
  }

  @Test func alwaysPagesEvenAShortTableAndKeepsTheStatus() throws {
    let result = try paged(["status:nothing-like-this", "SampleData/grn.csv", "--pager", "always"])
    #expect(result.received?.contains("0 of 1,500 records") == true)
    #expect(result.stdout.isEmpty)
    #expect(result.status == 1)
  }

  @Test func neverWritesATallTableDirectly() throws {
    let result = try paged(["limit:30 fields:grn_no,status", "SampleData/grn.csv", "--pager=never"])
    #expect(result.received == nil)
    #expect(result.stdout.split(separator: "\n").count == 33)
  }

  @Test func pagerComesFromPagerWhenSiftPagerIsUnset() throws {
    let result = try paged(["limit:30 fields:grn_no,status", "SampleData/grn.csv"], variable: "PAGER")
    #expect(result.received?.split(separator: "\n").count == 33)
    let overridden = try paged(
      ["limit:30 fields:grn_no,status", "SampleData/grn.csv"], variable: "PAGER",
      extra: ["SIFT_PAGER": "/nonexistent/pager"])
    #expect(overridden.received == nil, "SIFT_PAGER comes before PAGER")
    #expect(overridden.stdout.split(separator: "\n").count == 33)
  }

  @Test func aTallCountTableIsPagedToo() throws {
    let result = try paged(["-c", "group:customer", "SampleData/grn.csv", "--color=never"])
    let lines = try #require(result.received, "the pager was not run").split(separator: "\n")
    #expect(lines[1].hasPrefix("customer") && lines[1].hasSuffix("count"))
    #expect(lines.last?.hasPrefix("(empty)") == true)
    #expect(result.stdout.isEmpty)
  }

  /// A pager that quits without reading (as `q` in less) ends the run quietly, status kept.
  @Test func aPagerThatQuitsEarlyKeepsTheStatus() throws {
    let result = try paged(
      ["limit:1000", "SampleData/grn.csv"], extra: ["SIFT_PAGER": "true"])
    #expect(result.stdout.isEmpty)
    #expect(result.status == 0)
  }
}
