/// Named bytes (STYLE.md rule 2).
extension UInt8 {
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let comma = UInt8(ascii: ",")
  static let dot = UInt8(ascii: ".")
  static let colon = UInt8(ascii: ":")
  static let slash = UInt8(ascii: "/")
  static let zero = UInt8(ascii: "0")
  static let nine = UInt8(ascii: "9")
  static let lowerE = UInt8(ascii: "e")
  static let upperE = UInt8(ascii: "E")
  static let upperT = UInt8(ascii: "T")
  static let upperZ = UInt8(ascii: "Z")
  static let lowerZ = UInt8(ascii: "z")
  static let lowerT = UInt8(ascii: "t")
}
