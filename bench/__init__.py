"""The benchmarks run by ./scripts/bench; the product never imports them."""
