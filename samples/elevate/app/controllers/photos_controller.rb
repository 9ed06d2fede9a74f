# Syncing an album's photos (Elevate 0.7). The background block nests `do`/`{ }` blocks,
# begin/rescue, a heredoc and strings that contain `end`, and hands UI work to the main queue.
class PhotosController < UITableViewController
  include Elevate

  QUERY = <<-SQL
    SELECT id, url, thumbnail FROM photos
    WHERE album_id = ? AND updated_at > ?
    -- do not reorder: the table view relies on the end of this list being the newest
    ORDER BY updated_at
  SQL

  def initWithAlbum(album)
    initWithStyle(UITableViewStylePlain).tap { @album = album }
  end

  def viewWillAppear(animated)
    super
    launch(:sync_photos, album_id: @album.id, since: @last_sync || Time.at(0))
  end

  task :sync_photos do
    background do
      fresh = API.photos(task_args[:album_id], since: task_args[:since])
      saved = fresh.map { |photo| PhotoStore.save(photo) }.compact

      saved.each do |photo|
        begin
          Thumbnailer.generate(photo) unless photo.thumbnail?
        rescue Thumbnailer::Error => e
          NSLog("thumbnail failed for %@ (the end of the file is damaged?): %@", photo.id, e.message)
        end
      end

      Dispatch::Queue.main.async do
        # UI work belongs on the main queue.
        UIApplication.sharedApplication.networkActivityIndicatorVisible = false
      end

      PhotoStore.query(QUERY, task_args[:album_id], task_args[:since])
    end

    on_finish do |photos, exception|
      @photos = photos || []
      @last_sync = Time.now unless exception
      tableView.reloadData
    end
  end

  def tableView(tableView, numberOfRowsInSection: section)
    (@photos || []).size
  end

  def tableView(tableView, cellForRowAtIndexPath: indexPath)
    cell = tableView.dequeueReusableCellWithIdentifier("photo") ||
      UITableViewCell.alloc.initWithStyle(UITableViewCellStyleDefault, reuseIdentifier: "photo")
    cell.textLabel.text = @photos[indexPath.row].title
    cell
  end
end
