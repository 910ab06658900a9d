-- The passport's data page is kept for manual review under its own name
-- (issue #35), beside the license front and the selfie.
ALTER TABLE flow_review_images DROP CONSTRAINT flow_review_images_kind_check;
ALTER TABLE flow_review_images ADD CONSTRAINT flow_review_images_kind_check
	CHECK (kind IN ('license_front', 'passport_page', 'selfie'));
