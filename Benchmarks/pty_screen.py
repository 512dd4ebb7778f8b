"""The screen on a pseudo-terminal for the interactive benchmarks (Docs/Interactive.md,
Responsiveness): `start` runs a command on one (100x30, NO_COLOR), `Screen` reads it back."""
import os, pty, select, time


def start(argv, stdin_fd=None):
    """Runs `argv` on a new pseudo-terminal (standard input `stdin_fd` when given); returns
    its process id and the terminal's controlling end."""
    pid, fd = pty.fork()
    if pid == 0:
        if stdin_fd is not None:
            os.dup2(stdin_fd, 0)
        os.environ.update({"LANG": "C.UTF-8", "TERM": "xterm-256color", "NO_COLOR": "1"})
        os.execv(argv[0], argv)
    import fcntl, struct, termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    return pid, fd


class Screen:
    """What the program has drawn so far."""

    def __init__(self, fd):
        self.fd, self.seen = fd, b""

    def read_until(self, text, timeout=120.0):
        """Reads until `text` appears in what arrives from now on; returns the time it did."""
        start = len(self.seen)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text.encode() in self.seen[start:]:
                return time.monotonic()
            if select.select([self.fd], [], [], 0.005)[0]:
                self.seen += os.read(self.fd, 1 << 16)
        raise SystemExit(f"timed out waiting for {text!r}")
