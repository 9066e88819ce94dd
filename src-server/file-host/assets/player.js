// Plays a file on the watch and embed pages: the HLS rendition when the
// conversion finished (natively or with hls.js), the original bytes otherwise.
(function () {
  var media = document.getElementById('player');
  if (!media) return;
  var hls = media.getAttribute('data-hls');
  var original = media.getAttribute('data-src');
  function playOriginal() {
    media.src = original;
  }
  if (!hls) return playOriginal();
  if (media.canPlayType('application/vnd.apple.mpegurl')) {
    media.src = hls;
    media.addEventListener('error', playOriginal, { once: true });
    return;
  }
  if (window.Hls && window.Hls.isSupported()) {
    var player = new window.Hls();
    player.on(window.Hls.Events.ERROR, function (_event, data) {
      if (data.fatal) {
        player.destroy();
        playOriginal();
      }
    });
    player.loadSource(hls);
    player.attachMedia(media);
    media.setAttribute('data-player', 'hls.js');
    return;
  }
  playOriginal();
})();
