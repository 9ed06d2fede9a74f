# Downloading an artwork's image with Elevate 0.7's task DSL: `task`, `launch`, `timeout`,
# progress with `update`/`on_update`, a named error handler and `on_error`.
class ArtworkController < UIViewController
  include Elevate

  SIZES = %w[small medium full].freeze

  def initWithArtwork(artwork)
    initWithNibName(nil, bundle: nil).tap do
      @artwork = artwork
    end
  end

  def viewDidLoad
    super

    self.title = @artwork.title
    @image_view = UIImageView.alloc.initWithFrame(view.bounds)
    @image_view.contentMode = UIViewContentModeScaleAspectFit
    view.addSubview(@image_view)

    launch(:download_artwork, artwork_id: @artwork.id, size: "full")
  end

  def retry_download(sender)
    launch :download_artwork, artwork_id: @artwork.id, size: SIZES.first
  end

  def viewWillDisappear(animated)
    super
    cancel(:download_artwork)
  end

  task :download_artwork do
    timeout 30

    background do
      # Runs on Elevate's queue, in a sandbox: the arguments of launch arrive only as
      # task_args; the controller's instance variables (and any @ivar) are nil here.
      artwork_id = task_args[:artwork_id]
      size = task_args[:size]
      url = "#{API::BASE_URL}/artworks/#{artwork_id}/image?size=#{size}"
      response = Elevate::HTTP.get(url)
      raise ArtworkMissingError, "no image for artwork #{artwork_id}" if response.status_code == 404

      update :downloaded
      image = UIImage.imageWithData(response.body)
      unless image.nil?
        ImageCache.store(image, key: "artwork-#{artwork_id}-#{size}")
        update :cached
      end
      image
    end

    on_start do
      SVProgressHUD.showWithStatus("Downloading…")
    end

    on_update do |stage|
      case stage
      when :downloaded then SVProgressHUD.showWithStatus("Decoding…")
      when :cached then SVProgressHUD.showWithStatus("Almost done…")
      end
    end

    on_timeout do |error|
      SVProgressHUD.showErrorWithStatus("The server is taking too long. Try again later.")
    end

    on_artwork_missing do |error|
      SVProgressHUD.showErrorWithStatus("This artwork has no image (yet).")
    end

    on_error do |error|
      SVProgressHUD.showErrorWithStatus(error.message)
    end

    on_finish do |image, exception|
      SVProgressHUD.dismiss if exception.nil?
      @image_view.image = image if image
    end
  end
end
