// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "sift",
  products: [
    .executable(name: "sift", targets: ["sift"]),
    .library(name: "SiftCore", targets: ["SiftCore"]),
  ],
  dependencies: [],
  targets: [
    // The C calls the Glibc module leaves out (Docs/Performance.md, Temporary space;
    // Docs/CommandLine.md, Options).
    .target(name: "GNUCalls"),
    .target(name: "SiftCore", dependencies: ["GNUCalls"]),
    .target(name: "SiftScreen", dependencies: ["SiftCore"]),
    .target(name: "SiftCLI", dependencies: ["GNUCalls", "SiftCore", "SiftScreen"]),
    // The Swift runtime is linked into the binary on Linux, so the README's `swift build -c
    // release` starts as fast as a static build (Docs/Performance.md, "Start-up"). macOS keeps
    // the runtime that ships with the system.
    .executableTarget(
      name: "sift", dependencies: ["SiftCLI"],
      linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"], .when(platforms: [.linux], configuration: .release))]),
    .target(name: "SiftBenchKit", dependencies: ["SiftCore"]),
    .executableTarget(name: "sift-bench", dependencies: ["SiftBenchKit", "SiftCore"]),
    .testTarget(name: "SiftCoreTests", dependencies: ["SiftCore"]),
    .testTarget(name: "SiftCLITests", dependencies: ["SiftCLI", "SiftCore"], exclude: ["Cases", "Fixtures"]),
    .testTarget(name: "SiftScreenTests", dependencies: ["SiftScreen", "SiftCore"], exclude: ["Screens"]),
    .testTarget(name: "SiftBenchKitTests", dependencies: ["SiftBenchKit", "SiftCore"]),
  ]
)
