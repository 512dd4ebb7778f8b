#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// A named zone's offsets over time from the system's zone files (`TZDIR`, else
/// `/usr/share/zoneinfo`; RFC 8536's TZif format), for `--tz Europe/Berlin` and the machine's
/// own zone (Docs/QueryLanguage.md, Instants). After a file's last change the last offset holds
/// (the usual files list the changes up to 2037).
enum ZoneFile {
  /// The zone named `name` (`Europe/Berlin`), or `nil` when no zone file of that name reads.
  static func rules(named name: String, environment: [String: String]) -> ZoneRules? {
    let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    let bare = name.hasPrefix(":") ? String(name.dropFirst()) : name
    // A zone name is letters, digits and `/_+-`, never a way out of the directory.
    guard !bare.isEmpty, !bare.hasPrefix("/"), !bare.contains(".."),
      bare.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_+-".unicodeScalars.contains($0)) })
    else { return nil }
    return read(path: directory + "/" + bare)
  }

  /// The zone in the TZif file at `path`, or `nil` when it is missing or not a zone file.
  static func read(path: String) -> ZoneRules? {
    guard let bytes = contents(of: path) else { return nil }
    return parse(bytes)
  }

  /// The zone a TZif file holds: version 2 and later use the second, 64-bit block.
  static func parse(_ bytes: [UInt8]) -> ZoneRules? {
    func header(at start: Int) -> (timeCount: Int, typeCount: Int, dataSize32: Int, dataSize64: Int)? {
      guard bytes.count >= start + 44, bytes[start..<(start + 4)].elementsEqual("TZif".utf8) else {
        return nil
      }
      func count(_ k: Int) -> Int { Int(be32(bytes, start + 20 + 4 * k)) }
      let (isUT, isStd, leap, time, type, chars) = (count(0), count(1), count(2), count(3), count(4), count(5))
      let rest = time + type * 6 + chars + isStd + isUT
      return (time, type, time * 4 + leap * 8 + rest, time * 8 + leap * 12 + rest)
    }
    guard let first = header(at: 0) else { return nil }
    let version = bytes[4]
    var start = 44
    var timeCount = first.timeCount
    var typeCount = first.typeCount
    var width = 4
    if version >= UInt8(ascii: "2") {
      guard let second = header(at: 44 + first.dataSize32) else { return nil }
      start = 44 + first.dataSize32 + 44
      (timeCount, typeCount, width) = (second.timeCount, second.typeCount, 8)
    }
    let indices = start + timeCount * width
    let types = indices + timeCount
    guard typeCount > 0, bytes.count >= types + typeCount * 6 else { return nil }
    func offset(ofType t: Int) -> WallTime? {
      guard t < typeCount else { return nil }
      return WallTime(Int32(bitPattern: be32(bytes, types + 6 * t))) * 1_000_000
    }
    guard let initial = offset(ofType: 0) else { return nil }
    var changes: [(at: WallTime, offset: WallTime)] = []
    for i in 0..<timeCount {
      let at: Int64 =
        width == 8
        ? Int64(bitPattern: UInt64(be32(bytes, start + 8 * i)) << 32 | UInt64(be32(bytes, start + 8 * i + 4)))
        : Int64(Int32(bitPattern: be32(bytes, start + 4 * i)))
      guard let to = offset(ofType: Int(bytes[indices + i])) else { return nil }
      // Seconds far outside any date sift reads would overflow microseconds; they change nothing.
      guard abs(at) < 1 << 40 else { continue }
      changes.append((WallTime(at) * 1_000_000, to))
    }
    return ZoneRules(initial: initial, changes: changes)
  }

  private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  /// A small file's bytes (a zone file is a few KB; more than 1 MiB is not one).
  private static func contents(of path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count <= 1 << 20 {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 { return nil }
      if n == 0 { return bytes }
      bytes += buffer[0..<n]
    }
    return nil
  }
}
