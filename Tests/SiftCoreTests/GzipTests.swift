import Foundation
import Testing

@testable import SiftCore

/// The inflate and gzip framing of Inflater, against python3's zlib and the gzip tool.
@Suite struct GzipTests {
  /// Decompresses `bytes` as `name`, reading in odd-sized pieces.
  static func inflate(_ bytes: [UInt8], piece: Int = 4093) throws(InputError) -> [UInt8] {
    let source = ByteSource(bytes: bytes, name: "t.gz")
    let stream = ByteSource(stage: Inflater(inner: source, initial: []), name: "t.gz")
    var out: [UInt8] = []
    while try stream.read(into: &out, maxCount: piece) > 0 {}
    return out
  }

  /// Whether python3 is on the PATH, to make the cases the differential tests read.
  static let hasPython3 = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }

  /// Runs `python3` with `script` in a fresh folder; the folder, or `nil` when python3 is absent.
  static func generate(_ script: String) -> URL? {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-gzip-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script]
    p.currentDirectoryURL = dir
    guard (try? p.run()) != nil else { return nil }
    p.waitUntilExit()
    return p.terminationStatus == 0 ? dir : nil
  }

  static let cases = """
    import gzip, zlib, random, shutil, subprocess
    random.seed(7)
    text = b''.join(b'%d,widget %d,%s\\n' % (i, i % 97, b'x' * (i % 13)) for i in range(40000))
    rnd = bytes(random.randrange(256) for _ in range(200000))
    far = rnd[:40000] + b'q' * 30000 + rnd[:40000]
    def raw(data, level, strategy=zlib.Z_DEFAULT_STRATEGY):
        c = zlib.compressobj(level, zlib.DEFLATED, 31, 9, strategy)
        return c.compress(data) + c.flush()
    cases = {
      'empty': (b'', gzip.compress(b'')),
      'stored': (text[:100000], gzip.compress(text[:100000], 0)),
      'fixed': (text[:5000], raw(text[:5000], 6, zlib.Z_FIXED)),
      'dynamic1': (text, raw(text, 1)),
      'dynamic9': (text, raw(text, 9)),
      'random': (rnd, raw(rnd, 6)),
      'far': (far, raw(far, 9)),
      'rle': (b'a' * 300000, raw(b'a' * 300000, 6, zlib.Z_RLE)),
      'multi': (text + rnd + b'end', gzip.compress(text, 1) + gzip.compress(rnd, 9) + gzip.compress(b'end')),
      'named': (text[:777], gzip.compress(text[:777], mtime=0)),
    }
    if shutil.which('gzip'):
        open('t', 'wb').write(text + rnd)
        for level in ('-1', '-6', '-9'):
            cases['gzip' + level] = (text + rnd, subprocess.run(['gzip', '-c', '-n', level, 't'], capture_output=True).stdout)
        cases['gzipname'] = (text + rnd, subprocess.run(['gzip', '-c', '-N', 't'], capture_output=True).stdout)
    for name, (plain, packed) in cases.items():
        open(name + '.plain', 'wb').write(plain)
        open(name + '.gz', 'wb').write(packed)
    """

  @Test(.enabled(if: hasPython3, "needs python3 (zlib and gzip make the cases)"))
  func matchesZlibAndGzip() throws {
    let dir = try #require(Self.generate(Self.cases))
    defer { try? FileManager.default.removeItem(at: dir) }
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
      .filter { $0.hasSuffix(".gz") }
    #expect(names.count >= 10)
    for name in names {
      let packed = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
      let plain = [UInt8](
        try Data(contentsOf: dir.appendingPathComponent(name.dropLast(3) + ".plain")))
      for piece in [1 << 16, 1000] {
        do {
          let out = try Self.inflate(packed, piece: piece)
          #expect(out == plain, "\(name): \(out.count) bytes, expected \(plain.count)")
        } catch {
          Issue.record("\(name): \(error)")
        }
      }
    }
  }

  /// A small member, compressed by python3's zlib (dynamic Huffman) at generation time: 634
  /// bytes, every one of them cut at and flipped by the tests below.
  static let small: [UInt8] = {
    guard let dir = generate("""
      import gzip
      open('s.gz', 'wb').write(gzip.compress(b''.join(b'%d,row %d\\n' % (i, i * 7) for i in range(150)), mtime=0))
      """) else { return [] }
    defer { try? FileManager.default.removeItem(at: dir) }
    return (try? [UInt8](Data(contentsOf: dir.appendingPathComponent("s.gz")))) ?? []
  }()

  @Test(.enabled(if: hasPython3, "needs python3 (its zlib makes the member)"))
  func everyTruncationIsAnError() {
    let packed = Self.small
    #expect(!packed.isEmpty)
    for cut in 0..<packed.count {
      #expect(throws: InputError.self, "cut at \(cut)") { try Self.inflate(Array(packed[..<cut])) }
    }
    #expect(throws: Never.self) { try Self.inflate(packed) }
  }

  @Test(.enabled(if: hasPython3, "needs python3 (its zlib makes the member)"))
  func bitFlipsAreErrorsOrCRCMismatches() {
    let packed = Self.small
    #expect(!packed.isEmpty)
    let plain = (try? Self.inflate(packed)) ?? []
    // Skip the header's MTIME/XFL/OS bytes (4...9): gzip does not check them.
    for index in 10..<packed.count {
      for bit in [0, 3, 7] {
        var damaged = packed
        damaged[index] ^= 1 << UInt8(bit)
        let out = try? Self.inflate(damaged)
        #expect(out == nil || out == plain, "flip at \(index).\(bit) went unnoticed")
      }
    }
  }

  @Test(.enabled(if: hasPython3, "needs python3 (its zlib makes the member)"))
  func errorNamesTheCompressedOffset() throws {
    let packed = Self.small
    try #require(packed.count > 40)
    do {
      _ = try Self.inflate(Array(packed[..<40]))
      Issue.record("no error")
    } catch {
      #expect(error.description == "t.gz: corrupt gzip data at byte 40: unexpected end of file (the file is truncated)")
    }
  }

  @Test func crc32OfKnownText() {
    let bytes = Array("123456789".utf8)
    #expect(bytes.withUnsafeBufferPointer { CRC32.update(0, $0.baseAddress!, $0.count) } == 0xCBF4_3926)
  }
}
