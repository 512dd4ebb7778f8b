/// CRC-32 (IEEE, reflected), slicing by 8.
enum CRC32 {
  static let tables: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 256 * 8)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      t[n] = c
    }
    for n in 0..<256 {
      for k in 1..<8 { t[k * 256 + n] = (t[(k - 1) * 256 + n] >> 8) ^ t[Int(t[(k - 1) * 256 + n] & 0xFF)] }
    }
    return t
  }()

  /// `crc` is the running complement (start at 0; the final value is `~crc`).
  static func update(_ crc: UInt32, _ p: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
    var c = ~crc
    var i = 0
    tables.withUnsafeBufferPointer { t in
      while i + 8 <= count {
        let lo = UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self).littleEndian ^ c
        let hi = UnsafeRawPointer(p + i + 4).loadUnaligned(as: UInt32.self).littleEndian
        c =
          t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
          ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
        i += 8
      }
      while i < count {
        c = t[Int((c ^ UInt32(p[i])) & 0xFF)] ^ (c >> 8)
        i += 1
      }
    }
    return ~c
  }
}
