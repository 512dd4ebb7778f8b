import SiftCore

#if canImport(Glibc)
  import Glibc
#endif

/// Creates (or empties) the file at `path` for writing; nil, with `errno` set, when it cannot.
func createFile(_ path: String) -> Int32? {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  return fd >= 0 ? fd : nil
}

/// Reports that writing `path` failed; returns exit status 1.
func writeFailure(_ path: String, _ error: OutputError) -> Int32 {
  switch error {
  case .closed: failure("cannot write \(path): the reader closed it")
  case .failed(let message): failure("cannot write \(path): \(message)")
  }
}
