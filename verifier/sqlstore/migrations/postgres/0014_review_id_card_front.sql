-- The ID card's front (its portrait) is kept for manual review under its
-- own name (issue #35), beside the license front, the passport's data page
-- and the selfie.
ALTER TABLE flow_review_images DROP CONSTRAINT flow_review_images_kind_check;
ALTER TABLE flow_review_images ADD CONSTRAINT flow_review_images_kind_check
	CHECK (kind IN ('license_front', 'passport_page', 'id_card_front', 'selfie'));
