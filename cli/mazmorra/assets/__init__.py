"""What faces are made of besides text: fonts (`fonts`), icons and where their numbers sit (`icons`,
`iconnumbers`) and raster images (`images`). The shipped files themselves (fonts/, icons/, icc/) sit
at the package's root, beside templates/ (`support.paths`)."""
