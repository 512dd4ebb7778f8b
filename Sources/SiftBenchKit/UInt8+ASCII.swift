/// The bytes the writers name.
extension UInt8 {
  static let zero = UInt8(ascii: "0")
  static let comma = UInt8(ascii: ",")
  static let dot = UInt8(ascii: ".")
  static let hyphen = UInt8(ascii: "-")
  static let colon = UInt8(ascii: ":")
  static let space = UInt8(ascii: " ")
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let letterT = UInt8(ascii: "T")
}
