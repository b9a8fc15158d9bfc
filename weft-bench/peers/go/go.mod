module weft.dev/bench/peers/go

go 1.22
