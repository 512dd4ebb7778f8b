/// Terminal colour for the feedback bar chips (Docs/FeedbackBar.md).
public enum ColorMode: Sendable, Equatable {
  case none
  /// 256-colour palette codes (nearest to the brand colours).
  case palette256
  /// 24-bit colour (`COLORTERM` is `truecolor` or `24bit`).
  case trueColor

  /// A colour as red, green and blue.
  public typealias RGB = (UInt8, UInt8, UInt8)

  /// Active chips: white on orange `#f69000`; inactive: `#1D2D3E` on light grey `#F2F2F7`.
  public static let activeForeground: RGB = (0xFF, 0xFF, 0xFF)
  public static let activeBackground: RGB = (0xF6, 0x90, 0x00)
  public static let inactiveForeground: RGB = (0x1D, 0x2D, 0x3E)
  public static let inactiveBackground: RGB = (0xF2, 0xF2, 0xF7)
  /// A tab's badge and an error: red `#D32030`.
  public static let alert: RGB = (0xD3, 0x20, 0x30)

  /// `text` wrapped in the escape sequences of its chip kind.
  public func paint(_ text: String, active: Bool) -> String {
    let fg = active ? ColorMode.activeForeground : ColorMode.inactiveForeground
    let bg = active ? ColorMode.activeBackground : ColorMode.inactiveBackground
    guard self != .none else { return text }
    return "\u{1B}[\(parameters(foreground: fg, background: bg))m\(text)\u{1B}[0m"
  }

  /// The SGR parameters that set `foreground` and `background` (`38;2;255;255;255;48;5;214`);
  /// empty without colour.
  public func parameters(foreground: RGB?, background: RGB?) -> String {
    func colour(_ c: RGB, _ layer: Int) -> String? {
      switch self {
      case .none: return nil
      case .trueColor: return "\(layer);2;\(c.0);\(c.1);\(c.2)"
      case .palette256: return "\(layer);5;\(ColorMode.nearest256(c))"
      }
    }
    return [foreground.flatMap { colour($0, 38) }, background.flatMap { colour($0, 48) }]
      .compactMap { $0 }.joined(separator: ";")
  }

  /// The xterm 256-colour index nearest to an RGB colour (6×6×6 cube or grey ramp).
  static func nearest256(_ c: (UInt8, UInt8, UInt8)) -> Int {
    let levels = [0, 95, 135, 175, 215, 255]
    func nearestLevel(_ v: UInt8) -> Int {
      var best = 0
      for i in 1..<levels.count where abs(levels[i] - Int(v)) < abs(levels[best] - Int(v)) { best = i }
      return best
    }
    func distance(_ a: (Int, Int, Int)) -> Int {
      let dr = a.0 - Int(c.0), dg = a.1 - Int(c.1), db = a.2 - Int(c.2)
      return dr * dr + dg * dg + db * db
    }
    let (r, g, b) = (nearestLevel(c.0), nearestLevel(c.1), nearestLevel(c.2))
    let cube = 16 + 36 * r + 6 * g + b
    let cubeDistance = distance((levels[r], levels[g], levels[b]))
    let average = (Int(c.0) + Int(c.1) + Int(c.2)) / 3
    let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
    let greyValue = 8 + 10 * greyIndex
    let greyDistance = distance((greyValue, greyValue, greyValue))
    return greyDistance < cubeDistance ? 232 + greyIndex : cube
  }
}
