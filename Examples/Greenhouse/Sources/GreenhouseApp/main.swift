import Greenhouse

// Launches the app: on Apple platforms through SwiftUI, elsewhere headless on RippleUI's render
// tree (which prints what the first screen shows).
GreenhouseApp.main()
