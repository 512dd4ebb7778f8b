func sampleCommand(_ arguments: [String]) -> Int32 { 0 }
