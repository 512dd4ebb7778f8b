#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
@testable import SiftCore

/// The conformance suites in `Tests/Conformance/` (csv-spectrum and JSONTestSuite, with their
/// licences), so a clone anywhere runs them.
enum ConformanceFiles {
  static let root: String = {
    var path = "\(#filePath)"
    for _ in 0..<3 {  // …/Tests/SiftCoreTests/ConformanceFiles.swift → package root
      if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
    }
    return path + "/Tests/Conformance"
  }()

  /// The names of the files in `folder` (relative to the root), sorted.
  static func names(in folder: String) -> [String] {
    guard let dir = opendir(root + "/" + folder) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
  }

  /// The bytes of a file under the root.
  static func bytes(_ path: String) throws(InputError) -> [UInt8] {
    let source = try ByteSource(path: root + "/" + path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return bytes
  }
}
