/// Named bytes, shared by the readers, the planner and the writers: no magic numbers in scanning code.
extension UInt8 {
  static let lineFeed = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let tab = UInt8(ascii: "\t")
  static let space = UInt8(ascii: " ")
  static let comma = UInt8(ascii: ",")
  static let colon = UInt8(ascii: ":")
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let pipe = UInt8(ascii: "|")
  static let delete: UInt8 = 0x7F
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let dot = UInt8(ascii: ".")
  static let slash = UInt8(ascii: "/")
  static let digitZero = UInt8(ascii: "0")
  static let digitNine = UInt8(ascii: "9")
  static let lowerE = UInt8(ascii: "e")
  static let upperE = UInt8(ascii: "E")
  static let lowerT = UInt8(ascii: "t")
  static let upperT = UInt8(ascii: "T")
  static let lowerZ = UInt8(ascii: "z")
  static let upperZ = UInt8(ascii: "Z")
  static let upperW = UInt8(ascii: "W")
  static let verticalTab: UInt8 = 0x0B
  static let formFeed: UInt8 = 0x0C
  static let star = UInt8(ascii: "*")
  static let singleQuote = UInt8(ascii: "'")
  static let leftParen = UInt8(ascii: "(")
  static let rightParen = UInt8(ascii: ")")
  static let less = UInt8(ascii: "<")
  static let greater = UInt8(ascii: ">")
  static let equals = UInt8(ascii: "=")

  /// JSON whitespace (RFC 8259): space, tab, line feed, carriage return.
  var isJSONWhitespace: Bool {
    self == .space || self == .lineFeed || self == .carriageReturn || self == .tab
  }

  var isDigit: Bool { self >= .digitZero && self <= .digitNine }
}
