package loopback

import "github.com/chromedp/cdproto/network"

// Fast4G is Chrome DevTools' "Fast 4G" preset, the network the pages'
// budgets are measured on (with a 4× CPU slowdown): 9 Mbit/s down,
// 1.5 Mbit/s up (each × 0.9), 60 ms × 2.75 of latency.
var Fast4G = network.Conditions{Latency: 165, DownloadThroughput: 9e6 / 8 * 0.9, UploadThroughput: 1.5e6 / 8 * 0.9}
