//! Suite generation, writing, sharding and merging (issue 4).
