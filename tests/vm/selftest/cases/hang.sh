#!/bin/bash
# timeout: 5
# Never finishes: the per-case timeout must fail it.
sleep 1000
