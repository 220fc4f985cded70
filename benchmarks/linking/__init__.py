"""The labelled real-site corpus for term linking and the benchmark that scores scan against it."""
