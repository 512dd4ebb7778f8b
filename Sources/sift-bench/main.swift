print("usage: sift-bench gen|scan …")
