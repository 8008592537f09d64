print("Ripple Playground")
