#if canImport(Glibc)
  import Glibc
#endif

/// `sift-bench COMMAND …`: each command reads the arguments after its name and returns the
/// exit status.
let commands: [String: ([String]) -> Int32] = [
  "gen": generateCommand,
  "sample": sampleCommand,
  "scan": { scanBenchmark(arguments: $0) },
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = commands[name] else {
  exit(usageFailure("usage: sift-bench \(commands.keys.sorted().joined(separator: "|")) …"))
}
exit(command(Array(arguments.dropFirst())))
