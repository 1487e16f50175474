module stackbench.dev/own-app

go 1.26
