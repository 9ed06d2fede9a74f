# Saving the profile (Elevate 0.7). Planted defect: missing-data-key.
class ProfileController < UIViewController
  include Elevate

  def viewDidLoad
    super

    @profile = Profile.current
    @name_field = UITextField.alloc.initWithFrame([[20, 100], [280, 31]])
    @name_field.text = @profile.name
    view.addSubview(@name_field)
  end

  def save(sender)
    launch(:save_profile, name: @name_field.text)
  end

  task :save_profile do
    background do
      # defect: missing-data-key — @profile is the controller's instance variable: the background block runs in a sandbox whose @ivars are nil (launch passes only task_args[:name])
      @profile.name = task_args[:name]
      API.update_profile(@profile)
    end

    on_start do
      SVProgressHUD.showWithStatus("Saving…")
    end

    on_finish do |response, exception|
      if exception
        SVProgressHUD.showErrorWithStatus("Could not save")
      else
        SVProgressHUD.showSuccessWithStatus("Saved")
      end
    end
  end
end
