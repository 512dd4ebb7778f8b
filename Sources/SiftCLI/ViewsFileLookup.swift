import SiftCore

/// Finds and reads the views file (Docs/Views.md, The views file): `--config FILE`, else `$SIFT_CONFIG`, else
/// `./sift.json`, else `$XDG_CONFIG_HOME/sift/config.json` (`~/.config/sift/config.json`).
struct ViewsFileLookup {
  let options: Options
  /// The process's environment, for `$SIFT_CONFIG`, `$XDG_CONFIG_HOME` and `$HOME`.
  let environment: [String: String]
  /// The current directory, for `./sift.json`.
  let currentDirectory: String

  /// The places to look, in order; `explicit` ones must exist.
  var candidates: [(path: String, explicit: Bool)] {
    let env = environment
    if let config = options.config { return [(config, true)] }
    if let config = env["SIFT_CONFIG"], !config.isEmpty { return [(config, true)] }
    let here = currentDirectory == "." ? "" : currentDirectory + "/"
    var paths = [(here + "sift.json", false)]
    if let xdg = env["XDG_CONFIG_HOME"], !xdg.isEmpty {
      paths.append((xdg + "/sift/config.json", false))
    } else if let home = env["HOME"], !home.isEmpty {
      paths.append((home + "/.config/sift/config.json", false))
    }
    return paths
  }

  /// The parsed views file.
  func load() throws(Problem) -> ViewsFile {
    for (path, explicit) in candidates {
      let bytes: [UInt8]
      do throws(InputError) {
        bytes = try read(path)
      } catch {
        if !explicit && error.message == "no such file" { continue }
        throw .unreadableViewsFile(error)
      }
      do throws(ViewsFileError) { return try ViewsFile.parse(bytes, path: path) } catch {
        throw .viewsFile(error)
      }
    }
    throw .noViewsFile
  }

  private func read(_ path: String) throws(InputError) -> [UInt8] {
    let source = try ByteSource(path: path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return bytes
  }

  /// The view `name` of `file`.
  static func view(named name: String, in file: ViewsFile) throws(Problem) -> View {
    guard let view = file.view(named: name) else { throw .unknownView(name, file: file) }
    return view
  }
}
